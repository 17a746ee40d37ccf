package cluster

import "time"

// The engines GET /api/cluster names.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
)

// View is GET /api/cluster.
type View struct {
	Engine string `json:"engine"`
	// Replica is the id of the replica that answers.
	Replica  string        `json:"replica"`
	Replicas []ReplicaView `json:"replicas"`
}

// ReplicaView is one replica.
type ReplicaView struct {
	ID        string    `json:"id"`
	Address   string    `json:"address"`
	Since     time.Time `json:"since"`
	Leader    bool      `json:"leader"`
	Listening bool      `json:"listening"`
	This      bool      `json:"this"`
}
