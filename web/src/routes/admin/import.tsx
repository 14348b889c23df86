import { type ImportAnswer, type ImportSource, importSourceLabels } from '@bugtrail/domain/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { CopyCheck } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { SelectField } from '../../components/ui/field';
import { messageOf } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { type ImportProgress, uploadImport } from '../../lib/import-upload';
import { notify } from '../../lib/notify';
import { projectsQuery } from '../../lib/projects';
import { FilePicker, ProgressBar, SystemPicker } from './-components/import-choose-export';
import { ImportedCard, PreviewCard } from './-components/import-results';

export const Route = createFileRoute('/admin/import')({ component: ImportPage });

/**
 * Import (api.md "Integrations", docs/import.md): an admin picks the system and the file,
 * previews what will be created and each invalid row (a dry run: nothing changes), then
 * imports, watching the file go up and the bugs go in.
 */
function ImportPage() {
  const queryClient = useQueryClient();
  const [from, setFrom] = useState<ImportSource>('redmine');
  const [file, setFile] = useState<File | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [project, setProject] = useState('');
  const projects = useQuery(projectsQuery());
  const open = (projects.data?.projects ?? []).filter((p) => !p.archived);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [imported, setImported] = useState<ImportAnswer | null>(null);
  const [isBusy, setBusy] = useState(false);

  const choose = (next: { from?: ImportSource; file?: File | null }) => {
    if (next.from) setFrom(next.from);
    if (next.file !== undefined) setFile(next.file);
    setPreview(null);
    setImported(null);
    setSkipInvalid(false);
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setProgress(null);
    try {
      const answer = await uploadImport(file, { from, dryRun, skipInvalid, project }, setProgress);
      if (dryRun) {
        setPreview(answer);
        setImported(null);
      } else {
        setImported(answer);
        setPreview(null);
        if (answer.imported > 0) {
          notify.success(`Imported ${formatNumber(answer.imported)} bug${answer.imported === 1 ? '' : 's'}`);
          void queryClient.invalidateQueries();
        }
      }
    } catch (error) {
      notify.error(messageOf(error, dryRun ? 'Could not read the file' : 'The import failed'));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <>
      <PageHeader
        title="Import bugs"
        subtitle="Bring your team's bugs from Redmine, Jira or GitHub, with their original dates, people and numbers in order."
      />
      <div className="grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6">
        <Card>
          <CardHeader
            title="1. Choose the export"
            subtitle="Nothing changes until you import: Preview reads the whole file and says what it would do."
          />
          <div className="space-y-5 px-5 py-4">
            <SystemPicker value={from} onChange={(system) => choose({ from: system })} disabled={isBusy} />
            <FilePicker file={file} from={from} onChange={(picked) => choose({ file: picked })} disabled={isBusy} />
            {open.length > 1 ? (
              <SelectField
                label="Into project"
                value={project}
                disabled={isBusy}
                onChange={(event) => {
                  setProject(event.target.value);
                  setPreview(null);
                  setImported(null);
                }}
                hint="The imported bugs take this project's key, numbered in the order of the file"
                options={[
                  { value: '', label: 'Default project' },
                  ...open.map((p) => ({ value: p.key, label: `${p.key} · ${p.name}` })),
                ]}
              />
            ) : null}
            {progress ? <ProgressBar progress={progress} /> : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant={preview ? 'secondary' : 'primary'}
                icon={<CopyCheck className="size-4" />}
                isLoading={isBusy && !preview}
                disabled={!file || isBusy}
                onClick={() => void run(true)}
              >
                Preview
              </Button>
            </div>
          </div>
        </Card>

        {preview ? (
          <PreviewCard
            answer={preview}
            label={importSourceLabels[from]}
            skipInvalid={skipInvalid}
            onSkipInvalid={setSkipInvalid}
            isBusy={isBusy}
            onImport={() => void run(false)}
          />
        ) : null}

        {imported ? <ImportedCard answer={imported} label={importSourceLabels[from]} /> : null}
      </div>
    </>
  );
}
