import { Download } from 'lucide-react';
import { useState } from 'react';
import { downloadFile } from '../lib/api';
import { notify } from '../lib/notify';
import { Button } from './ui/button';

/** "Download Report": fetches an export with the session's token and saves it under `filename`. */
export function DownloadReportButton({ path, filename, failure }: { path: string; filename: string; failure: string }) {
  const [isDownloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(path, filename);
    } catch {
      notify.error(failure);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button variant="secondary" onClick={download} isLoading={isDownloading} icon={<Download className="size-4" />}>
      Download Report
    </Button>
  );
}
