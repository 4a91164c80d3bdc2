import { Page } from '../../components/page.tsx';
import { useToast } from '../../components/toast.tsx';
import { useDeleteRun } from '../../features/runs/api/delete-run.ts';
import { useRuns } from '../../features/runs/api/get-runs.ts';
import { RunList } from '../../features/runs/components/run-list.tsx';

/** Run history (§2): up to 100 runs, with delete. */
export function RunHistoryRoute() {
  const runs = useRuns(100);
  const remove = useDeleteRun();
  const toast = useToast();
  const onDelete = (id: string) => {
    if (!window.confirm('Delete this run?')) return;
    remove.mutate(id, { onError: () => toast.show({ tone: 'error', title: 'Failed to delete run' }) });
  };
  return (
    <Page title="Run History">
      <section className="card">
        {runs.isPending ? <p className="muted">Loading…</p> : <RunList runs={runs.data ?? []} onDelete={onDelete} />}
      </section>
    </Page>
  );
}
