/**
 * A fake AIProxy library API on 127.0.0.1 speaking its wire format: `POST /api/library/ask`
 * with `{model, query, libraryId, stream}`, the account key as Bearer. Not streamed: one
 * `{success, answer, documents}` JSON answer; streamed: `data:` lines of
 * `{content, finish, model, documents}` word by word, the last with `finish: true` and the
 * documents. Errors are `{success: false, errCode, message}` (an unknown library id answers so
 * with HTTP 200, as the service does for its own refusals); a mid-stream error is such a line.
 * No token counts anywhere: the API has none.
 *
 * Scripting: `fake.script({text, error, streamErrorAfter, body, events})` (see script.ts);
 * `fake.documents` are the references every answer cites.
 */
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, scriptedFake, type ScriptedFake, sendJson, startFakeHttpServer } from './http-fake';
import { DEFAULT_TEXT, pieces, ScriptQueue, type SseOut, writeSse } from './script';

export interface LibraryDocument {
  title: string;
  url: string;
}

export interface FakeAiproxy extends ScriptedFake {
  keys: Set<string>;
  libraries: Set<string>;
  documents: LibraryDocument[];
}

function libraryError(res: ServerResponse, status: number, errCode: number, message: string): void {
  sendJson(res, status, { success: false, errCode, message });
}

export async function startFakeAiproxy(): Promise<FakeAiproxy> {
  const queue = new ScriptQueue<RecordedRequest>();
  const own = {
    keys: new Set(['ap-fake-good']),
    libraries: new Set(['lib-42']),
    documents: [{ title: 'Switchyard manual', url: 'https://docs.example.com/manual' }] as LibraryDocument[],
  };
  const server = await startFakeHttpServer((_req, res) => libraryError(res, 404, 404, 'Not Found'));

  server.route('POST', '/api/library/ask', async (req, res) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!own.keys.has(key)) return libraryError(res, 401, 401, 'invalid api key');
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (typeof body.query !== 'string' || typeof body.model !== 'string' || typeof body.libraryId !== 'string') {
      return libraryError(res, 400, 400, 'model, query and libraryId are required');
    }
    if (!own.libraries.has(body.libraryId)) return libraryError(res, 200, 10001, `library ${body.libraryId} not found`);
    const reply = queue.next(req);
    if (reply.error) return libraryError(res, reply.error.status, Number(reply.error.code ?? reply.error.status), reply.error.message);
    const text = reply.text ?? DEFAULT_TEXT;
    if (body.stream === true) {
      const words = pieces(text);
      const events: SseOut[] = reply.events ?? [
        ...words.slice(0, -1).map((content): SseOut => ({ data: { content, finish: false, model: body.model } })),
        { data: { content: words.at(-1) ?? '', finish: true, model: body.model, documents: own.documents } },
      ];
      return writeSse(res, events, reply, { errorEvent: { data: { success: false, errCode: 10002, message: 'library answer interrupted' } } });
    }
    sendJson(res, 200, reply.body ?? { success: true, answer: text, documents: own.documents });
  });

  return scriptedFake(server, queue, own);
}
