DROP TABLE traffic_decisions;
DROP TABLE traffic_samples;
