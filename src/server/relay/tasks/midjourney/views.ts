/**
 * A drawing task as Midjourney-proxy clients read it (docs/tasks.md#reading-tasks), with the
 * image address of services/tasks/image-url.ts.
 */
import type { AppContext } from '../../../context';
import type { MidjourneyRow } from '../../../services/tasks/task.repository';
import { parseJson } from '../task-upstream';
import { forwardedImageUrl } from '../../../services/tasks/image-url';

function jsonOr<T>(text: string | null, fallback: T): unknown {
  if (!text) return fallback;
  const parsed = parseJson(text);
  return parsed === undefined ? fallback : parsed;
}

export function taskView(ctx: AppContext, row: MidjourneyRow): Record<string, unknown> {
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl: forwardedImageUrl(ctx, row),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: jsonOr(row.buttons, []),
    properties: jsonOr(row.properties, null),
  };
}
