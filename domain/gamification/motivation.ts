/** The motivational messages of §9, by the percentage from which each applies (ascending). */
export const MOTIVATIONAL_MESSAGES: readonly { readonly fromPercent: number; readonly message: string }[] = [
  { fromPercent: 0, message: "Let's get started!" },
  { fromPercent: 10, message: "You're on your way!" },
  { fromPercent: 25, message: 'Great start! Keep going!' },
  { fromPercent: 50, message: 'Halfway there! Keep it up!' },
  { fromPercent: 70, message: 'Almost there! Final push!' },
  { fromPercent: 100, message: 'Goal achieved!' },
];

/** The message for a goal percentage: the last one whose threshold it has reached (below 0 counts as 0). */
export function motivationalMessage(percentage: number): string {
  let message = MOTIVATIONAL_MESSAGES[0]!.message;
  for (const step of MOTIVATIONAL_MESSAGES) if (percentage >= step.fromPercent) message = step.message;
  return message;
}
