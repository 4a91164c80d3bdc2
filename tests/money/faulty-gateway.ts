import type { PaymentGateway } from '../../app-server/adapters/payments/payment-gateway.ts';
import type { StakeFaults } from '../../app-server/process/stakes/perform-action.ts';

/** An injected crash: the process "dies" here (nothing after it in the run happens). */
export class InjectedCrash extends Error {}

/** A seeded PRNG (mulberry32), so a failing crash point can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Counts every step a settlement run takes (each provider call, before and after it, and before and after the
 * outcome is recorded) and throws InjectedCrash at the chosen step numbers.
 */
export class CrashPlan {
  step = 0;
  crashes = 0;
  #at = new Set<number>();

  arm(steps: number[]): void {
    this.step = 0;
    this.#at = new Set(steps);
  }

  hit(where: string): void {
    this.step += 1;
    if (this.#at.has(this.step)) {
      this.#at.delete(this.step);
      this.crashes += 1;
      throw new InjectedCrash(`crash at step ${this.step} (${where})`);
    }
  }

  /** Faults between recording steps, for the stake process. */
  get faults(): StakeFaults {
    return { at: (step, key) => this.hit(`${step} ${key}`) };
  }
}

const MUTATIONS = [
  'placeHold',
  'captureHold',
  'releaseHold',
  'chargeOffSession',
  'refundPayment',
  'retrievePaymentIntent',
] as const;

/** The real gateway, with a crash possible just before and just after each call reaches it. */
export function faultyGateway(real: PaymentGateway, plan: CrashPlan): PaymentGateway {
  const wrapped = Object.create(real) as PaymentGateway;
  for (const name of MUTATIONS) {
    const original = (real[name] as (...args: unknown[]) => Promise<unknown>).bind(real);
    (wrapped as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      plan.hit(`before ${name}`);
      const result = await original(...args);
      plan.hit(`after ${name}`);
      return result;
    };
  }
  return wrapped;
}
