DROP TABLE upgrade_tasks;
