/**
 * Admin-authored content (home page, about): an http(s) URL is shown in a frame, anything
 * else as Markdown (which may contain HTML, as in the reference product), sanitised.
 */
import { useMemo } from 'react';
import { frameUrl, safeMarkdown } from './safe-html';

export function MarkdownOrFrame({ content, title }: { content: string; title: string }) {
  const url = frameUrl(content);
  const html = useMemo(() => (url ? '' : safeMarkdown(content)), [url, content]);
  if (url) return <iframe src={url} title={title} className="sy-content-frame" />;
  return <div className="sy-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
