/**
 * The phases of an assigned partition and the one table of moves between them (the consumer's counterpart of
 * Java's SubscriptionState.FetchStates). PartitionState (positions.ts) is the only writer of a phase; each of
 * its methods is one named transition here, and a transition from a phase the table does not list throws
 * IllegalTransitionError: a bug in the consumer, never a condition the application must handle.
 */
import { TidemarkError } from '../../codecs/errors.js';

export type PartitionPhase =
  /** Waiting for the stored (committed) offset to be loaded, validated and range-checked. */
  | 'initializing'
  /** Waiting for a ListOffsets lookup: a seekToBeginning/End, or an auto reset after OFFSET_OUT_OF_RANGE. */
  | 'resetting'
  /** Waiting for OffsetForLeaderEpoch to confirm the position still exists after a leader change (KIP-320). */
  | 'validating'
  /** Has a valid position; fetched whenever not paused. */
  | 'fetching'
  /** Stopped by an error the application must act on (seek, or unassign); `error` says which. */
  | 'failed'
  /** Being revoked by the group or unassigned: no longer fetched or delivered, kept until its commits flush. */
  | 'revoking'
  /**
   * Assigned again while its previous state was still `revoking` (a manual assign() took it back before the drop
   * finished): not fetched until that state's handlers settled, then goes on from what they processed.
   */
  | 'reclaiming';

/** Every phase but `revoking`: a partition the consumer still owns. */
const OWNED = ['initializing', 'resetting', 'validating', 'fetching', 'failed', 'reclaiming'] as const;

/**
 * The transitions, each with the phases it may start from and the phase it ends in. A phase not listed under
 * `from` cannot take that step: e.g. a revoked partition is never sought, fetched or failed again (it is
 * replaced by a fresh state if assigned again), a failed one stays failed with its first error until the
 * application seeks, and only a lookup that is out (resetting, validating) can confirm a position.
 */
export const TRANSITIONS = {
  /** A lookup found where to go on (stored offset in range, a reset's answer, a truncation's fix). */
  found: { from: ['initializing', 'resetting', 'validating', 'fetching'], to: 'fetching' },
  /** The lookup confirmed the current position (validated after a leader change, or still in range). */
  confirm: { from: ['resetting', 'validating'], to: 'fetching' },
  /** The application sought to an offset without a leader epoch: fetch from it as is. */
  seek: { from: OWNED, to: 'fetching' },
  /** The application sought to an offset with a leader epoch: validate it first (KIP-320). */
  seekValidated: { from: OWNED, to: 'validating' },
  /** The application asked for the beginning or end of the log (seekToBeginning/End). */
  requestReset: { from: OWNED, to: 'resetting' },
  /** The position fell out of the log (OFFSET_OUT_OF_RANGE, or truncation with no epoch in common). */
  awaitReset: { from: ['initializing', 'validating', 'fetching'], to: 'resetting' },
  /** The leader changed while fetching: confirm the position survived before fetching on (KIP-320). */
  awaitValidation: { from: ['fetching'], to: 'validating' },
  /** An error the application must act on. */
  fail: { from: ['initializing', 'resetting', 'validating', 'fetching'], to: 'failed' },
  /** The group revoked the partition or the application unassigned it. */
  revoke: { from: OWNED, to: 'revoking' },
  /** A fresh state takes over from its previous one, still revoking: it waits for that one's handlers. */
  reclaim: { from: ['initializing'], to: 'reclaiming' },
  /** The previous state's handlers settled: go on from what they processed. */
  takeOver: { from: ['reclaiming'], to: 'fetching' },
  /** The previous state's handlers settled having processed nothing: look the position up as any assignment. */
  lookUp: { from: ['reclaiming'], to: 'initializing' },
  /** Pausing or resuming leaves the phase as it is; a revoked partition can do neither. */
  pause: { from: OWNED, to: undefined },
} as const satisfies Record<string, { from: readonly PartitionPhase[]; to: PartitionPhase | undefined }>;

export type PartitionTransition = keyof typeof TRANSITIONS;

/** The phase `transition` leads to from `phase` (the same phase for a pause), or undefined when illegal. */
export function nextPhase(phase: PartitionPhase, transition: PartitionTransition): PartitionPhase | undefined {
  const { from, to } = TRANSITIONS[transition];
  if (!(from as readonly PartitionPhase[]).includes(phase)) return undefined;
  return to ?? phase;
}

/** A partition was asked to take a step its phase does not allow: a bug in the consumer, never retried. */
export class IllegalTransitionError extends TidemarkError {
  override name = 'IllegalTransitionError';

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly phase: PartitionPhase,
    readonly transition: PartitionTransition,
  ) {
    super(`${topic}-${partition}: '${transition}' is not allowed in phase '${phase}' (a consumer bug)`);
  }
}
