/** A spinner on stderr while a request is waiting; only when stderr is a terminal. */
import type { Stream } from './output';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function startSpinner(stream: Stream, label: string): () => void {
  if (stream.isTTY !== true) return () => {};
  let frame = 0;
  const draw = () => {
    stream.write(`\r${FRAMES[frame % FRAMES.length]} ${label}`);
    frame++;
  };
  // Quick answers never flash a spinner.
  const timer = setInterval(draw, 80);
  return () => {
    clearInterval(timer);
    if (frame > 0) stream.write('\r\u001b[K');
  };
}
