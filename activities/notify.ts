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
  remind(reminder: Reminder): Promise<void>;
}

export const logNotifier: Notifier = {
  async remind(reminder) {
    console.log(
      `[reminder] ${reminder.process} ${reminder.workflowId} waits for ${reminder.waitingFor.join(', ')} (reminder ${reminder.count})`,
    );
  },
};

export function createNotifyActivities(notifier: Notifier) {
  return {
    async sendReminder(reminder: Reminder) {
      await notifier.remind(reminder);
    },
  };
}

export type NotifyActivities = ReturnType<typeof createNotifyActivities>;
