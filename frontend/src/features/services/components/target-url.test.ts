import { describe, expect, it } from 'vitest';
import { parseTargetURL } from './target-url';

describe('parseTargetURL', () => {
  it.each([
    ['http://10.0.0.5:3000', { scheme: 'http', host: '10.0.0.5', port: 3000 }],
    ['  https://NAS.lan/ ', { scheme: 'https', host: 'nas.lan', port: 443 }],
    ['http://grafana', { scheme: 'http', host: 'grafana', port: 80 }],
    ['h2c://grpc:50051', { scheme: 'h2c', host: 'grpc', port: 50051 }],
    ['https://[fd00::5]:8443', { scheme: 'https', host: 'fd00::5', port: 8443 }],
    ['http://[::1]', { scheme: 'http', host: '::1', port: 80 }],
  ])('%s', (text, want) => {
    expect(parseTargetURL(text)).toEqual(want);
  });

  it.each(['10.0.0.5', 'ftp://x:21', 'http://', 'http://x:0', 'http://x:70000', 'http://x:port', 'http://x/path', 'http://u:p@x', 'http://fd00::5', 'http://x?q=1'])(
    'leaves %s alone',
    (text) => {
      expect(parseTargetURL(text)).toBeNull();
    },
  );
});
