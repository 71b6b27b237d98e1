// Tasks waiting for a completion, served round-robin across clients so one busy client cannot
// starve the others; first-in first-out within a client. The next task is the oldest of the client
// served least recently, so a client arriving behind another's burst goes next, not after one more
// of the burst.

export class FairQueue {
  private readonly byClient = new Map<string, string[]>();
  /** When each client was last served (a counter; a client never served has none). */
  private readonly served = new Map<string, number>();
  private turns = 0;

  push(clientKey: string, taskId: string, front = false): void {
    let list = this.byClient.get(clientKey);
    if (!list) {
      list = [];
      this.byClient.set(clientKey, list);
    }
    if (front) list.unshift(taskId);
    else list.push(taskId);
  }

  /** The next task: the oldest of the client served least recently. */
  shift(): string | undefined {
    let next: string | undefined;
    let nextServed = Infinity;
    for (const client of this.byClient.keys()) {
      const at = this.served.get(client) ?? -1;
      if (at < nextServed) {
        next = client;
        nextServed = at;
      }
    }
    if (next === undefined) return undefined;
    const list = this.byClient.get(next);
    const taskId = list?.shift();
    if (list?.length === 0) this.byClient.delete(next);
    this.served.set(next, ++this.turns);
    // Forget clients with nothing waiting once the map grows: only the relative order matters.
    if (this.served.size > 4096) for (const client of this.served.keys()) if (!this.byClient.has(client)) this.served.delete(client);
    return taskId;
  }

  remove(taskId: string): boolean {
    for (const [client, list] of this.byClient) {
      const i = list.indexOf(taskId);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) this.byClient.delete(client);
      return true;
    }
    return false;
  }

  has(taskId: string): boolean {
    for (const list of this.byClient.values()) if (list.includes(taskId)) return true;
    return false;
  }

  get size(): number {
    let n = 0;
    for (const list of this.byClient.values()) n += list.length;
    return n;
  }
}
