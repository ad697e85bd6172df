import { decodeAssignment, encodeAssignment } from '../../../../src/consumer/group/classic/consumer-protocol-codec.js';

type Override = (body: any) => any;

/**
 * A classic group coordinator with this member alone in the group, and the member its leader: JoinGroup answers
 * a new generation, SyncGroup hands back what the leader assigned. Tests queue overrides per API (answered in
 * order, then the default resumes) to script errors and other members' doings.
 */
export class ScriptedCoordinator {
  generation = 0;
  readonly memberId = 'member-1';
  /** What SyncGroup handed out last, decoded. */
  lastAssignment: Array<{ topic: string; partition: number }> = [];
  private readonly overrides = new Map<string, Override[]>();

  queue(api: string, ...answers: Override[]): this {
    const list = this.overrides.get(api) ?? [];
    list.push(...answers);
    this.overrides.set(api, list);
    return this;
  }

  readonly handle = (api: string, body: any): any => {
    const override = this.overrides.get(api)?.shift();
    if (override !== undefined) {
      const answer = override(body);
      if (answer !== undefined) return answer;
    }
    switch (api) {
      case 'JoinGroup':
        return this.join(body);
      case 'SyncGroup': {
        const mine = body.assignments.find((a: any) => a.memberId === body.memberId);
        const bytes = mine?.assignment ?? encodeAssignment({ partitions: this.lastAssignment, userData: null });
        this.lastAssignment = decodeAssignment(bytes).partitions;
        return { errorCode: 0, protocolType: 'consumer', protocolName: body.protocolName, assignment: bytes };
      }
      case 'Heartbeat':
        return { errorCode: 0 };
      case 'LeaveGroup':
        return { errorCode: 0, members: [] };
    }
    throw new Error(`unexpected ${api}`);
  };

  join(body: any, memberId = body.memberId === '' ? this.memberId : body.memberId): any {
    this.generation++;
    return {
      errorCode: 0,
      generationId: this.generation,
      protocolType: 'consumer',
      protocolName: body.protocols[0].name,
      leader: memberId,
      skipAssignment: false,
      memberId,
      members: [{ memberId, groupInstanceId: body.groupInstanceId, metadata: body.protocols[0].metadata }],
    };
  }

  /** A SyncGroup answer with these partitions, whatever the leader sent. */
  static sync(partitions: Array<{ topic: string; partition: number }>) {
    return (body: any) => ({
      errorCode: 0,
      protocolType: 'consumer',
      protocolName: body.protocolName,
      assignment: encodeAssignment({ partitions, userData: null }),
    });
  }

  static error(errorCode: number, extra: object = {}) {
    return () => ({
      errorCode,
      members: [],
      memberId: '',
      leader: '',
      generationId: -1,
      protocolName: null,
      assignment: Buffer.alloc(0),
      ...extra,
    });
  }
}
