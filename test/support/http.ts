import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server listening on an ephemeral loopback port. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  server: Server;
  /** Closes the server and every connection it still holds. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1, on a port the OS picks. */
export async function listen(server: Server): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** What {@link listenFastify} needs of a Fastify 4 or 5 app. */
export interface FastifyLikeApp {
  server: Server;
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<unknown>;
}

/** Starts a Fastify app on 127.0.0.1, on a port the OS picks. */
export async function listenFastify(app: FastifyLikeApp): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server: app.server,
    close: async () => {
      const closed = app.close();
      app.server.closeAllConnections();
      await closed;
    },
  };
}

/** One answer, read whole. `json` is the parsed body, or `undefined` when it is not JSON. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is; a string or object is sent as JSON text (objects are stringified). */
  body?: string | Buffer | object;
  /** Sends the body with `Transfer-Encoding: chunked`, in pieces of this many bytes, without `Content-Length`. */
  chunkSize?: number;
}

/** Reads a whole response; `json` is `undefined` when the body is not JSON. */
export function readAnswer(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
    });
  });
}

/**
 * Sends one request over a fresh connection with `node:http` (so chunked bodies and exact headers
 * are under the test's control) and reads the whole answer. JSON content type by default.
 */
export function send(url: string, options: SendOptions = {}): Promise<Answer> {
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? Buffer.from(options.body)
        : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string | number> = { 'content-type': 'application/json', ...options.headers };
  if (payload !== undefined && options.chunkSize === undefined && headers['content-length'] === undefined) {
    headers['content-length'] = payload.length;
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers, agent: false }, (res) =>
      readAnswer(res).then(resolve, reject),
    );
    req.on('error', reject);
    if (payload === undefined) return req.end();
    if (options.chunkSize === undefined) return req.end(payload);
    for (let offset = 0; offset < payload.length; offset += options.chunkSize) {
      req.write(payload.subarray(offset, offset + options.chunkSize));
    }
    req.end();
  });
}

/**
 * Starts a POST that declares `declaredBytes` but sends only `sentBytes`, then destroys the
 * connection: a client that gives up mid-body. Resolves once the socket is closed.
 */
export function abortMidBody(url: string, declaredBytes: number, sentBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': declaredBytes },
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    req.write(Buffer.alloc(sentBytes, 0x20), () => {
      // Give the server a moment to start reading before the client vanishes.
      setTimeout(() => req.destroy(), 50);
    });
  });
}

/** A JSON text of exactly `bytes` bytes: `{"text":"…"}` padded with JSON whitespace, which parsers ignore. */
export function paddedBody(text: string, bytes: number): string {
  const json = JSON.stringify({ text });
  if (Buffer.byteLength(json) > bytes) throw new RangeError(`the body is already larger than ${bytes} bytes`);
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
}
