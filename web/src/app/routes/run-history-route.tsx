import { LoadError } from '../../components/load-error.tsx';
import { Page } from '../../components/page.tsx';
import { PendingRuns } from '../../features/runs/offline/components/pending-runs.tsx';
import { useToast } from '../../components/toast.tsx';
import { useDeleteRun } from '../../features/runs/api/delete-run.ts';
import { useRuns } from '../../features/runs/api/get-runs.ts';
import { ImportRunFile } from '../../features/runs/components/import-run-file.tsx';
import { RunList } from '../../features/runs/components/run-list.tsx';
import { forgetTrack } from '../../features/runs/track/track-store.ts';

/** Run history (§2): up to 100 runs, with delete. */
export function RunHistoryRoute() {
  const runs = useRuns(100);
  const remove = useDeleteRun();
  const toast = useToast();
  const onDelete = (id: string) => {
    if (!window.confirm('Delete this run?')) return;
    remove.mutate(id, {
      onSuccess: () => forgetTrack(id),
      onError: () => toast.show({ tone: 'error', title: 'Failed to delete run' }),
    });
  };
  return (
    <Page title="Run History" back="/run">
      <PendingRuns />
      <ImportRunFile />
      <section className="card">
        {runs.isPending ? (
          <div className="skeleton run-skeleton" aria-busy="true" />
        ) : runs.isError ? (
          <LoadError what="your runs" onRetry={() => void runs.refetch()} />
        ) : (
          <RunList runs={runs.data} onDelete={onDelete} />
        )}
      </section>
    </Page>
  );
}
