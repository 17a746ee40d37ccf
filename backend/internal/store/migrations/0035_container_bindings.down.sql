DROP TABLE container_bindings;
