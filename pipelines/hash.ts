// The sha256 of a file, streamed (source files and export files can be gigabytes).
import crypto from 'node:crypto';
import fs from 'node:fs';

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
