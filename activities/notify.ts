// Reminders to end users who owe a process some input. Where they go (mail, push, a ticket) is
// the deployment's choice: pass a Notifier to the worker; the default writes a log line.
export interface Reminder {
  process: string;
  workflowId: string;
  /** What is awaited, as profile field ids or prompt ids: never personal data. */
  waitingFor: string[];
  count: number;
}

export interface Notifier {
  remind(r: Reminder): Promise<void>;
}

export const logNotifier: Notifier = {
  async remind(r) {
    console.log(`[reminder] ${r.process} ${r.workflowId} waits for ${r.waitingFor.join(', ')} (reminder ${r.count})`);
  },
};

export function createNotifyActivities(notifier: Notifier) {
  return {
    async sendReminder(r: Reminder) {
      await notifier.remind(r);
    },
  };
}

export type NotifyActivities = ReturnType<typeof createNotifyActivities>;
