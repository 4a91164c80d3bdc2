import type { DomainError } from '../../domain/shared/decider.ts';

/** A decider said no. Carries the domain's reason; the HTTP layer answers it with the matching status and message. */
export class DomainRefusal extends Error {
  readonly reason: DomainError;

  constructor(reason: DomainError) {
    super(reason.message);
    this.name = 'DomainRefusal';
    this.reason = reason;
  }
}
