DROP TABLE notify_channels;
