/**
 * The fake cluster's control hooks (after franz-go kfake's `ControlKey`): a test intercepts the requests of one
 * API, optionally to one broker and a number of times, and answers them itself, fails them, delays or holds them, or
 * lets the cluster answer and then loses the answer (the request took effect, the client never hears).
 */

/** A request as a handler and a control hook see it: decoded by the real request codec. */
export interface FakeRequest {
  node: number;
  api: string;
  version: number;
  // The handlers read decoded bodies of many APIs.
  body: any;
  /** When it arrived (epoch ms). */
  at: number;
  /** Which connection carried it (an index into `kafka.connections`). */
  connection: number;
}

/** What a control hook decides for one request; `undefined` lets the cluster answer as usual. */
export type ControlAnswer =
  /** Answer with this body (encoded by the real response codec). */
  | { response: unknown }
  /** Fail the request with this error (a connection or timeout error, as the network layer throws). */
  | { error: Error }
  /** Wait (for `after` to settle, then `delayMs`), then answer as usual: `after` orders answers without timing. */
  | { delayMs?: number; after?: PromiseLike<unknown> }
  | undefined;

export type ControlHook = (request: FakeRequest) => ControlAnswer;

interface Control {
  api: string;
  node?: number;
  /** How many more requests it intercepts (Infinity: until removed). */
  left: number;
  hook: ControlHook;
}

/** The hooks installed on one cluster, consulted in the order they were added. */
export class Controls {
  private readonly list: Control[] = [];

  /** Installs `hook` for the next `times` requests of `api` (to `node`, if given); returns a remover. */
  add(api: string, hook: ControlHook, options: { times?: number; node?: number } = {}): () => void {
    const control: Control = { api, node: options.node, left: options.times ?? Number.POSITIVE_INFINITY, hook };
    this.list.push(control);
    return () => {
      const at = this.list.indexOf(control);
      if (at >= 0) this.list.splice(at, 1);
    };
  }

  /** The first hook that takes the request decides; one that answers `undefined` lets the next one look. */
  consult(request: FakeRequest): ControlAnswer {
    for (const control of [...this.list]) {
      if (control.api !== request.api || (control.node !== undefined && control.node !== request.node)) continue;
      const answer = control.hook(request);
      if (answer === undefined) continue;
      if (--control.left <= 0) this.list.splice(this.list.indexOf(control), 1);
      return answer;
    }
    return undefined;
  }
}
