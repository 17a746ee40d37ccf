// Before any worker starts: the panel binary must exist, and the screenshots of the last run go.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { panelBinary } from './harness';
import { artifacts } from './page';

export default function globalSetup(): void {
  if (!existsSync(panelBinary)) {
    throw new Error(`${panelBinary} does not exist: run \`make build\` at the repository's root first (or set GATEHOUSE_BIN)`);
  }
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
}
