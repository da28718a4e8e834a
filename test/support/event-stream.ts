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
