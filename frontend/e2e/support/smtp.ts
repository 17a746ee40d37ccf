// The tests' SMTP receiver (go-smtp, backend/scripts/smtpreceiver): the mails the panel sends,
// as JSON lines, for the scenarios that read a code or a link from them.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const backend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../backend');

export interface Mail {
  to: string[];
  subject: string;
  /** The whole message as sent (headers and body). */
  data: string;
}

export interface Receiver {
  port: number;
  mails: Mail[];
  proc: ChildProcess;
}

/** Starts the Go SMTP receiver and collects the mails it prints. */
export async function startReceiver(): Promise<Receiver> {
  const proc = spawn('go', ['run', './scripts/smtpreceiver'], { cwd: backend, stdio: ['pipe', 'pipe', 'inherit'] });
  const mails: Mail[] = [];
  const lines = readline.createInterface({ input: proc.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    proc.on('exit', (code) => reject(new Error(`smtpreceiver exited with ${code}`)));
    lines.on('line', (line) => {
      const v = JSON.parse(line) as { port?: number } & Mail;
      if (v.port) resolve(v.port);
      else mails.push(v);
    });
  });
  return { port, mails, proc };
}

/** The text of a mail's body, quoted-printable soft breaks and escapes undone. */
export function mailText(mail: Mail): string {
  return mail.data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Stops the receiver. */
export function stopReceiver(r: Receiver): void {
  r.proc.stdin?.end();
  r.proc.kill('SIGTERM');
}

/** Adds an e-mail channel through the receiver, as the admin signed in on page would. */
export async function addMailChannel(page: Page, r: Receiver, name: string): Promise<void> {
  const res = await page.request.post('/api/notifications/channels', {
    data: { name, kind: 'email', settings: { host: '127.0.0.1', port: r.port, from: 'gate@example.net', encryption: 'none' } },
  });
  if (res.status() !== 201) throw new Error(`the e-mail channel was not created: ${res.status()} ${await res.text()}`);
}
