/**
 * The list's download button (`download` of a declaration): fetches `<api><path>` with the
 * list's filters, shows the bytes received while the file streams in, then hands it to the
 * browser as a download.
 */
import { DownloadOutlined } from '@ant-design/icons';
import type { CrudFilter } from '@refinedev/core';
import { Button } from 'antd';
import { useState } from 'react';
import { useLabel } from './use-label';
import type { DownloadDef } from '../../shared/resources/lists';
import { transportDeps } from '../state/wire';
import { downloadFile, formatBytes } from '../wire/download';
import { filtersToQuery, joinPath } from '../wire/mappings';
import { saveBlob } from '../wire/save-blob';
import { useApp } from '../state/feedback-app';

export function DownloadButton({ download, api, filters }: { download: DownloadDef; api: string; filters: CrudFilter[] }) {
  const t = useLabel();
  const { message } = useApp();
  const [busy, setBusy] = useState(false);
  const key = `download:${download.path}`;

  const run = async () => {
    setBusy(true);
    const progress = (bytes: number) =>
      message.open({ key, type: 'loading', duration: 0, content: <span data-testid="download-progress">{t(download.progressKey, { size: formatBytes(bytes) })}</span> });
    progress(0);
    try {
      const file = await downloadFile(transportDeps, joinPath(api, download.path), filtersToQuery(filters), progress, download.fileName);
      saveBlob(file.blob, file.fileName);
      message.open({ key, type: 'success', content: `${t(download.doneKey)} (${formatBytes(file.bytes)})` });
    } catch (err) {
      message.open({ key, type: 'error', content: `${t(download.failedKey)}: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()} data-testid="download-button">
      {t(download.labelKey)}
    </Button>
  );
}
