import { createWriteStream, WriteStream } from 'node:fs';

/** Where a supervised process's output lines go: to a callback, or appended to a file. */
export type OutputSink = ((line: string) => void) | { file: string };

export interface OpenOutput {
  write(line: string): void;
  /** For error messages: where the whole output can be read, if anywhere. */
  where: string;
  close(): Promise<void>;
}

export function openOutput(sink: OutputSink): OpenOutput {
  if (typeof sink === 'function') return { write: sink, where: '', close: async () => undefined };
  let stream: WriteStream | undefined;
  let closed = false;
  return {
    write: (line) => {
      if (closed) return; // a line from a child of the server, after it was stopped
      stream ??= createWriteStream(sink.file, { flags: 'a' });
      stream.write(`${line}\n`);
    },
    where: ` (full log: ${sink.file})`,
    close: () => {
      closed = true;
      return new Promise<void>((resolve) => (stream ? stream.end(() => resolve()) : resolve()));
    },
  };
}
