// Where a command writes: its answer and its errors. The process gives stdout and stderr; a
// test gives two buffers.
export interface Io {
  out(text: string): void;
  err(text: string): void;
}
