/**
 * Midjourney actions (docs/tasks.md#routes, docs/tasks.md#submitting): what each submit route asks for, the
 * Plus API's `customId` and the simple-change `content` turned into an action, and the
 * model name each action is priced and routed by.
 */

export const MJ_ACTIONS = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  upscale: 'UPSCALE',
  variation: 'VARIATION',
  highVariation: 'HIGH_VARIATION',
  lowVariation: 'LOW_VARIATION',
  pan: 'PAN',
  reroll: 'REROLL',
  inpaint: 'INPAINT',
  modal: 'MODAL',
  zoom: 'ZOOM',
  customZoom: 'CUSTOM_ZOOM',
  shorten: 'SHORTEN',
  upload: 'UPLOAD',
  swapFace: 'SWAP_FACE',
  video: 'VIDEO',
  edits: 'EDITS',
} as const;

export type MjAction = (typeof MJ_ACTIONS)[keyof typeof MJ_ACTIONS];

/** Actions a /submit/change request may name (the ones that act on an earlier image). */
export const CHANGE_ACTIONS: ReadonlySet<string> = new Set([
  MJ_ACTIONS.upscale,
  MJ_ACTIONS.variation,
  MJ_ACTIONS.highVariation,
  MJ_ACTIONS.lowVariation,
  MJ_ACTIONS.pan,
  MJ_ACTIONS.reroll,
  MJ_ACTIONS.zoom,
  MJ_ACTIONS.customZoom,
  MJ_ACTIONS.inpaint,
]);

/** Free at submission: the following MODAL step is what is charged (docs/tasks.md#submitting). */
export const FREE_ACTIONS: ReadonlySet<string> = new Set([MJ_ACTIONS.inpaint, MJ_ACTIONS.customZoom]);

/** `mj_<action>`, or `swap_face` for the face swap. */
export function modelOfAction(action: string): string {
  return action === MJ_ACTIONS.swapFace ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** How a submit route fixes its action; `origin` routes act on an earlier task. */
export interface SubmitRoute {
  path: string;
  /** The action, or how to read it from the body. */
  action: MjAction | 'from-body' | 'from-content' | 'from-custom-id';
  /** The request names an earlier task (`taskId`, or inside `content`). */
  origin: boolean;
}

export const SUBMIT_ROUTES: readonly SubmitRoute[] = [
  { path: '/submit/imagine', action: MJ_ACTIONS.imagine, origin: false },
  { path: '/submit/describe', action: MJ_ACTIONS.describe, origin: false },
  { path: '/submit/blend', action: MJ_ACTIONS.blend, origin: false },
  { path: '/submit/shorten', action: MJ_ACTIONS.shorten, origin: false },
  { path: '/submit/upload-discord-images', action: MJ_ACTIONS.upload, origin: false },
  { path: '/submit/video', action: MJ_ACTIONS.video, origin: false },
  { path: '/submit/edits', action: MJ_ACTIONS.edits, origin: false },
  { path: '/submit/change', action: 'from-body', origin: true },
  { path: '/submit/simple-change', action: 'from-content', origin: true },
  { path: '/submit/modal', action: MJ_ACTIONS.modal, origin: true },
  { path: '/submit/action', action: 'from-custom-id', origin: true },
  { path: '/insight-face/swap', action: MJ_ACTIONS.swapFace, origin: false },
];

export type Parsed<T> = { ok: true; value: T } | { ok: false; description: string };

/**
 * A Plus API `customId` (`MJ::JOB::upsample::2::<hash>`, `MJ::Outpaint::50::1::<hash>` …)
 * to its action and index, as the reference reads it.
 */
export function actionOfCustomId(customId: string): Parsed<{ action: MjAction; index: number }> {
  const parts = customId.split('::');
  const name = parts[1] === 'JOB' ? (parts[2] ?? '') : (parts[1] ?? '');
  if (!name) return { ok: false, description: 'unknown_action' };
  const indexAt = (n: number): number | undefined => {
    const text = parts[n] ?? '';
    return /^\d+$/.test(text) ? Number(text) : undefined;
  };
  if (name.includes('upsample')) {
    const index = indexAt(3);
    return index === undefined ? { ok: false, description: 'index_parse_failed' } : { ok: true, value: { action: MJ_ACTIONS.upscale, index } };
  }
  if (name.includes('variation')) {
    if (name === 'variation') {
      const index = indexAt(3);
      return index === undefined ? { ok: false, description: 'index_parse_failed' } : { ok: true, value: { action: MJ_ACTIONS.variation, index } };
    }
    if (name === 'low_variation') return { ok: true, value: { action: MJ_ACTIONS.lowVariation, index: 1 } };
    if (name === 'high_variation') return { ok: true, value: { action: MJ_ACTIONS.highVariation, index: 1 } };
  }
  if (name.includes('pan')) return { ok: true, value: { action: MJ_ACTIONS.pan, index: 1 } };
  if (name.includes('reroll')) return { ok: true, value: { action: MJ_ACTIONS.reroll, index: 1 } };
  if (name === 'Outpaint') return { ok: true, value: { action: MJ_ACTIONS.zoom, index: 1 } };
  if (name === 'CustomZoom') return { ok: true, value: { action: MJ_ACTIONS.customZoom, index: 1 } };
  if (name === 'Inpaint') return { ok: true, value: { action: MJ_ACTIONS.inpaint, index: 1 } };
  return { ok: false, description: `unknown_action:${customId}` };
}

/** simple-change `content`: `<taskId> <U1–U4 | V1–V4 | R>`. */
export function parseSimpleChange(content: string): { taskId: string; action: MjAction; index: number } | undefined {
  const parts = content.split(' ');
  if (parts.length !== 2 || !parts[0]) return undefined;
  const [taskId, change] = [parts[0], parts[1]!.toLowerCase()];
  if (change === 'r') return { taskId, action: MJ_ACTIONS.reroll, index: 0 };
  const kind = change[0] === 'u' ? MJ_ACTIONS.upscale : change[0] === 'v' ? MJ_ACTIONS.variation : undefined;
  if (!kind || !/^[1-4]$/.test(change.slice(1))) return undefined;
  return { taskId, action: kind, index: Number(change.slice(1)) };
}
