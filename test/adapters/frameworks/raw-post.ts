import { connect } from 'node:net';

/**
 * Sends `POST {target}` with a small JSON body over a raw socket, so that nothing resolves or
 * re-encodes the target on the way (`http.request` with a URL string resolves dot segments), and
 * resolves the answer's status (0 when the server closed without one).
 */
export function post(origin: string, target: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  const body = '{"text":"form"}';
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    const head = `POST ${target} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    socket.end(Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(body)]));
  });
}
