/**
 * The result of a music task, read from its `data` field: the upstream Suno payload kept as
 * JSON text. MUSIC tasks hold a list of clips, LYRICS tasks one object with the text.
 * Anything else (empty, unreadable, another shape) is an empty result; never throws.
 * Only http(s) URLs survive (safe-url.ts). Pure, so each rule is unit-tested.
 */
import { safeHttpUrl } from './safe-url';

export interface TaskClip {
  /** '' when the upstream gave none. */
  title: string;
  audioUrl?: string;
  imageUrl?: string;
  /** Seconds. */
  duration?: number;
}

export interface TaskLyrics {
  title: string;
  text: string;
}

export interface TaskResult {
  clips: TaskClip[];
  lyrics?: TaskLyrics;
}

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

function durationOf(metadata: unknown, clip: Obj): number | undefined {
  const raw = isObject(metadata) ? metadata.duration : clip.duration;
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function clipOf(value: unknown): TaskClip | undefined {
  if (!isObject(value)) return undefined;
  const clip: TaskClip = { title: textOf(value.title) };
  const audioUrl = safeHttpUrl(value.audio_url);
  const imageUrl = safeHttpUrl(value.image_url) ?? safeHttpUrl(value.image_large_url);
  const duration = durationOf(value.metadata, value);
  if (audioUrl) clip.audioUrl = audioUrl;
  if (imageUrl) clip.imageUrl = imageUrl;
  if (duration !== undefined) clip.duration = duration;
  return clip.title || clip.audioUrl ? clip : undefined;
}

function parse(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  if (data.trim() === '') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** The clips (MUSIC) or lyrics (LYRICS) held in a task's `data` (JSON text or already parsed). */
export function parseTaskResult(data: unknown): TaskResult {
  const payload = parse(data);
  // A clip list, possibly still wrapped in Suno's answer (`{clips: [...]}` / `{data: [...]}`).
  const list = Array.isArray(payload) ? payload : isObject(payload) ? [payload.clips, payload.data].find(Array.isArray) : undefined;
  if (list) return { clips: list.map(clipOf).filter((c): c is TaskClip => c !== undefined) };
  if (!isObject(payload)) return { clips: [] };
  const text = typeof payload.text === 'string' ? payload.text : '';
  if (text.trim() !== '') return { clips: [], lyrics: { title: textOf(payload.title), text } };
  // A single clip object.
  const clip = typeof payload.audio_url === 'string' ? clipOf(payload) : undefined;
  return { clips: clip ? [clip] : [] };
}

/** `125.4` seconds → `2:05`. */
export function formatClipDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}
