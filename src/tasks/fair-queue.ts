// Tasks waiting for a generation slot, served round-robin across clients so one busy client
// cannot starve the others; first-in first-out within a client.

export class FairQueue {
  private readonly byClient = new Map<string, string[]>();
  private readonly order: string[] = [];

  push(clientKey: string, taskId: string, front = false): void {
    let list = this.byClient.get(clientKey);
    if (!list) {
      list = [];
      this.byClient.set(clientKey, list);
      this.order.push(clientKey);
    }
    if (front) list.unshift(taskId);
    else list.push(taskId);
  }

  /** The next task, rotating to the next client each time. */
  shift(): string | undefined {
    while (this.order.length > 0) {
      const client = this.order.shift();
      if (client === undefined) return undefined;
      const list = this.byClient.get(client);
      const taskId = list?.shift();
      if (list && list.length > 0) this.order.push(client);
      else this.byClient.delete(client);
      if (taskId !== undefined) return taskId;
    }
    return undefined;
  }

  remove(taskId: string): boolean {
    for (const [client, list] of this.byClient) {
      const i = list.indexOf(taskId);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) {
        this.byClient.delete(client);
        this.order.splice(this.order.indexOf(client), 1);
      }
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
