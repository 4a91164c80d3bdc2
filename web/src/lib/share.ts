/**
 * Shares text with the Web Share API where the browser has it, else copies it (§1 celebration sharing). Answers
 * what happened so the caller can say 'Copied!'; a share the user dismissed is not an error.
 */
export async function shareOrCopy(text: string, title: string): Promise<'shared' | 'copied' | 'failed'> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, text });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'shared';
    }
  }
  return (await copyText(text)) ? 'copied' : 'failed';
}

/** Puts text on the clipboard; false when the browser has no clipboard or refused (no permission, not focused). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
