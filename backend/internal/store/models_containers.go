package store

import "time"

// Container binding sources and states (migration 0035).
const (
	// BindingPanel: the service was created from the container list and
	// stays editable; only its target follows the container.
	BindingPanel = "panel"
	// BindingLabels: the container's gatehouse.* labels declare the
	// service, which is read-only until detached.
	BindingLabels = "labels"

	ContainerRunning = "running"
	ContainerStopped = "stopped"
	ContainerGone    = "gone"
)

// ContainerBinding ties a service to a container of the Docker Engine the
// panel watches (migration 0035): its target follows the container's
// address on Network (or its published port when Network is "").
type ContainerBinding struct {
	ServiceID     string `gorm:"primaryKey"`
	ContainerName string
	Network       string
	Port          int
	Source        string
	State         string
	ContainerID   string
	// Address is the host:port the service's target was last set to.
	Address string
	// LabelsDigest is the digest of the gatehouse.* labels last applied
	// (label-declared services only), so unchanged labels write nothing.
	LabelsDigest string
	// LabelError is why the container's labels were last refused ("" when
	// they were applied).
	LabelError string
	CheckedAt  *time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}
