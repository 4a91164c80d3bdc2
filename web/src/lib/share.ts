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
  try {
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'failed';
  }
}
