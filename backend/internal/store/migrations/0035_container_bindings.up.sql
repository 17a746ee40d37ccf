-- Services bound to a container of the Docker Engine the panel watches
-- (PANEL_DOCKER_HOST). A row ties one service to a container by name, the
-- network whose address becomes the service's target ('' for the
-- container's published port) and the container's port. source says who
-- made the binding: 'panel' (created from the container list; the service
-- stays editable) or 'labels' (declared by the container's gatehouse.*
-- labels; the service is read-only until detached). state is what the
-- engine last said about the container: running, stopped or gone.
-- Deleting the service deletes its binding; detaching deletes the binding
-- and keeps the service.
CREATE TABLE container_bindings (
    service_id      TEXT PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    container_name  TEXT NOT NULL,
    network         TEXT NOT NULL DEFAULT '',
    port            INTEGER NOT NULL,
    source          TEXT NOT NULL DEFAULT 'panel',
    state           TEXT NOT NULL DEFAULT 'running',
    container_id    TEXT NOT NULL DEFAULT '',
    address         TEXT NOT NULL DEFAULT '',
    labels_digest   TEXT NOT NULL DEFAULT '',
    label_error     TEXT NOT NULL DEFAULT '',
    checked_at      TIMESTAMP,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
CREATE INDEX container_bindings_container ON container_bindings (container_name);
-- One labelled container declares one service.
CREATE UNIQUE INDEX container_bindings_labels ON container_bindings (container_name) WHERE source = 'labels';
