/**
 * The result of a music task (`task-result`), read from its `data` field (task-result.ts):
 * each clip's title with a player and a link opening the audio in a new tab, or a button
 * opening the lyrics as plain text. Only http(s) URLs reach `src`/`href`.
 */
import { ExportOutlined, FileTextOutlined } from '@ant-design/icons';
import { Button, Image, Space, Typography } from 'antd';
import type { TaskResultColumn } from '../../../shared/resources/columns';
import type { CellProps, RenderContext } from './cell-props';
import { formatClipDuration, parseTaskResult, type TaskClip, type TaskLyrics } from '../task-result';
import { Empty } from './value-cells';
import { useApp } from '../../state/feedback-app';

export function TaskResultCell({ value, column, ctx: { t } }: CellProps<TaskResultColumn>) {
  const result = parseTaskResult(value);
  if (result.lyrics) return <LyricsButton lyrics={result.lyrics} t={t} />;
  if (result.clips.length === 0) return column.emptyKey ? <Typography.Text type="secondary">{t(column.emptyKey)}</Typography.Text> : <Empty />;
  return (
    <Space direction="vertical" size={6} className="sy-task-result" data-testid="task-result">
      {result.clips.map((clip, index) => (
        <ClipView key={index} clip={clip} t={t} />
      ))}
    </Space>
  );
}

function ClipView({ clip, t }: { clip: TaskClip; t: RenderContext['t'] }) {
  const title = clip.title || t('tasks.result.untitled');
  return (
    <div className="sy-task-clip" data-testid="task-result-clip">
      {clip.imageUrl ? <Image src={clip.imageUrl} width={32} height={32} style={{ objectFit: 'cover', borderRadius: 4 }} alt={t('tasks.result.cover')} /> : null}
      <div className="sy-task-clip-body">
        <Space size={6} wrap>
          <Typography.Text strong ellipsis={{ tooltip: title }} style={{ maxWidth: 200 }}>
            {title}
          </Typography.Text>
          {clip.duration !== undefined ? <Typography.Text type="secondary">{formatClipDuration(clip.duration)}</Typography.Text> : null}
          {clip.audioUrl ? (
            <Typography.Link href={clip.audioUrl} target="_blank" rel="noopener noreferrer" data-testid="task-result-open">
              <ExportOutlined /> {t('tasks.result.open')}
            </Typography.Link>
          ) : null}
        </Space>
        {clip.audioUrl ? <audio className="sy-task-audio" controls preload="none" src={clip.audioUrl} aria-label={t('tasks.result.play', { title })} data-testid="task-result-audio" /> : null}
      </div>
    </div>
  );
}

function LyricsButton({ lyrics, t }: { lyrics: TaskLyrics; t: RenderContext['t'] }) {
  const { modal } = useApp();
  const open = () =>
    modal.info({
      title: lyrics.title || t('tasks.result.lyricsTitle'),
      width: 560,
      icon: null,
      content: (
        <div className="sy-lyrics" data-testid="task-result-lyrics-text">
          {lyrics.text}
        </div>
      ),
      okText: t('common.ok'),
    });
  return (
    <Button size="small" icon={<FileTextOutlined />} onClick={open} data-testid="task-result-lyrics">
      {t('tasks.result.lyrics')}
    </Button>
  );
}
