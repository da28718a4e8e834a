import { connect } from 'node:net';

/** One Server-Sent Event as a client sees it, or a comment line. */
export interface StreamEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** An open event stream: its answer's status and headers, its events as they come, and a way to hang up. */
export interface EventStream {
  status: number;
  headers: Headers;
  /** The next event (or comment) within `ms`; rejects when none came or the stream ended. */
  next(ms?: number): Promise<StreamEvent>;
  /** Hangs up, as a browser closing the page does. */
  close(): void;
}

/**
 * Opens `url` as an `EventSource` would, over real HTTP, with a `Last-Event-ID` when resuming,
 * and parses the stream per the HTML standard's rules (fields, comments, blank-line dispatch).
 */
export async function openEventStream(
  url: string,
  { lastEventId, headers: extra = {} }: { lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<EventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-cache', ...extra };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ready: StreamEvent[] = [];
  let buffer = '';
  let pending: StreamEvent = {};
  let reading: Promise<ReadableStreamReadResult<string>> | undefined;
  const parse = () => {
    for (let end = buffer.search(/\r\n|\r|\n/); end !== -1; end = buffer.search(/\r\n|\r|\n/)) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (Object.keys(pending).length > 0) ready.push(pending);
        pending = {};
      } else if (line.startsWith(':')) ready.push({ comment: line.slice(1).trim() });
      else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') pending.data = pending.data === undefined ? value : `${pending.data}\n${value}`;
        else if (field === 'id' || field === 'event') pending[field] = value;
      }
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    async next(ms = 10_000) {
      const until = Date.now() + ms;
      while (ready.length === 0) {
        const left = until - Date.now();
        if (left <= 0) throw new Error(`no event within ${ms} ms`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        // One read at a time: a read that lost the race is the next one awaited.
        reading ??= reader.read();
        const chunk = await Promise.race([
          reading,
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), left);
          }),
        ]).finally(() => clearTimeout(timer));
        if (chunk === null) continue;
        reading = undefined;
        if (chunk.done) throw new Error('the stream ended');
        buffer += chunk.value;
        parse();
      }
      return ready.shift()!;
    },
    close: () => {
      controller.abort();
      reading?.catch(() => undefined);
    },
  };
}

/** The next `count` events of `stream` that are not comments. */
export async function nextEvents(stream: EventStream, count: number): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  while (events.length < count) {
    const event = await stream.next();
    if (event.comment === undefined) events.push(event);
  }
  return events;
}

/** One answer read off a kept-alive connection: its status line's code, its headers and its whole body. */
export interface KeptAliveAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What {@link keptAliveEventSource} saw on its one connection. */
export interface KeptAliveEventSource {
  /** Every answer read whole, in order. */
  answers: KeptAliveAnswer[];
  /** The body of the answer being read, so far. */
  reading(): string;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  /** Whether the server has closed it. */
  isClosed(): boolean;
  /** Stops reading from the connection (the server's writes pile up), as a reader that cannot keep up. */
  pause(): void;
  /** Hangs up. */
  destroy(): void;
}

/**
 * Asks for an event stream over one HTTP/1.1 connection and, each time an answer ends while the
 * connection stays open, asks again on the same connection after `retryMs`: what a browser's
 * `EventSource` does over a kept-alive connection (it reconnects, and the browser reuses the
 * socket). At most `maxRequests` requests, so that a server that never closes the connection
 * cannot keep it busy for ever. Raw bytes, so the test sees exactly what the server sent and when
 * it closed the connection.
 */
export function keptAliveEventSource(
  url: string,
  { retryMs = 50, maxRequests = 20 }: { retryMs?: number; maxRequests?: number } = {},
): KeptAliveEventSource {
  const { hostname, port, pathname, search } = new URL(url);
  const socket = connect(Number(port), hostname);
  const answers: KeptAliveAnswer[] = [];
  let requests = 0;
  let closed = false;
  const ask = () => {
    if (closed || requests >= maxRequests) return;
    requests++;
    socket.write(
      `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n`,
    );
  };
  let buffer = Buffer.alloc(0);
  let head: { status: number; headers: Record<string, string> } | null = null;
  let body = '';
  const parse = () => {
    for (;;) {
      if (head === null) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        head = { status: Number(statusLine!.split(' ')[1]), headers };
        buffer = buffer.subarray(end + 4);
        body = '';
      }
      // Every stream answer is chunked: its length is unknown when it starts.
      const sizeEnd = buffer.indexOf('\r\n');
      if (sizeEnd === -1) return;
      const size = Number.parseInt(buffer.subarray(0, sizeEnd).toString('latin1'), 16);
      if (buffer.length < sizeEnd + 2 + size + 2) return;
      body += buffer.subarray(sizeEnd + 2, sizeEnd + 2 + size).toString('utf8');
      buffer = buffer.subarray(sizeEnd + 2 + size + 2);
      if (size === 0) {
        answers.push({ ...head, body });
        head = null;
        setTimeout(ask, retryMs);
      }
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    parse();
  });
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.once('end', () => {
    closed = true;
    socket.end();
  });
  socket.once('close', () => {
    closed = true;
  });
  ask();
  return {
    answers,
    reading: () => (head === null ? '' : body),
    closed: ended,
    isClosed: () => closed,
    pause: () => socket.pause(),
    destroy: () => socket.destroy(),
  };
}
