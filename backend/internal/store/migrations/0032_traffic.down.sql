DROP TABLE traffic_decisions;
DROP TABLE traffic_samples;
DROP TABLE traffic_series;
