import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api.ts';
import type { Goal, Run, RunWithTrack } from './api-types.ts';

/** A run imported from a watch file, with the file's format, creator and device. */
export type ImportedRun = Run & { readonly recorded_with: RunWithTrack['recorded_with'] };

/**
 * POST /runs/import: the file as the multipart field `file`; a refused file throws its sentence; the same file twice
 * answers with the run it saved first. Shared by the run screen's "Import a file" and the appeal's "Attach a watch file".
 */
export const importRunFile = (file: File) => {
  const form = new FormData();
  form.set('file', file, file.name);
  return api<{ data: ImportedRun; goal: Goal | null }>('/runs/import', { method: 'POST', body: form });
};

/** A new run changes the runs, goals, XP and feed. */
export function useImportRunFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importRunFile,
    onSuccess: () => {
      for (const key of ['runs', 'goals', 'xp', 'me', 'feed']) client.invalidateQueries({ queryKey: [key] });
    },
  });
}
