// The GUI's root: the query cache, the live event stream that keeps it fresh, and the screen the
// hash names.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { listenToLiveEvents } from '../api/live-events';
import { sessionTokenNow } from '../api/session';
import { desktopBridge } from '../platform';
import { BackupsScreen } from '../screens/Backups';
import { ClientsScreen } from '../screens/Clients';
import { DrillsScreen } from '../screens/Drills';
import { OffsiteScreen } from '../screens/Offsite';
import { OverviewScreen } from '../screens/Overview';
import { TasksScreen } from '../screens/Tasks';
import type { Screen } from './routes';
import { Shell } from './Shell';
import { SignedOut } from './SignedOut';
import { useRoute } from './use-route';

// Restoring is rare and its screen is large (the flow, every check's words in both languages):
// loaded when first opened, so the first load of every other screen stays within its budget.
// The chat screen carries a Markdown reader and its own styles: its own chunk too.
const loadChat = () => import('../screens/chat/Chat');
const ChatScreen = lazy(() => loadChat().then((m) => ({ default: m.ChatScreen })));
const RestoreScreen = lazy(() => import('../screens/Restore').then((m) => ({ default: m.RestoreScreen })));
// The Models screen (getting a model from a hub, its downloads, each model's settings) is opened
// now and then, not on every start: its own chunk.
const ModelsScreen = lazy(() => import('../screens/Models').then((m) => ({ default: m.ModelsScreen })));
// Settings (schedules, retention, the recovery kit, diagnostics, devices) is opened to change
// something, not to look: its own chunk too.
const SettingsScreen = lazy(() => import('../screens/Settings').then((m) => ({ default: m.SettingsScreen })));

const SCREEN_COMPONENTS: Record<Screen, React.ComponentType<{ id: string | null }>> = {
  overview: OverviewScreen,
  chat: ChatScreen,
  tasks: TasksScreen,
  models: ModelsScreen,
  clients: ClientsScreen,
  backups: BackupsScreen,
  offsite: OffsiteScreen,
  drills: DrillsScreen,
  restore: RestoreScreen,
  settings: SettingsScreen,
};

export function App({ client }: { client: QueryClient }) {
  const route = useRoute();
  const [connected, setConnected] = useState(false);
  // A browser tab with no session (the desktop window always signs in by itself).
  const signedIn = desktopBridge() !== null || sessionTokenNow() !== null;
  useEffect(() => (signedIn ? listenToLiveEvents(client, setConnected) : undefined), [client, signedIn]);
  // The chat screen is where a person goes most: its chunk is fetched once the first screen is up
  // (not in the first load's budget), so opening a conversation waits only for its data.
  useEffect(() => {
    if (!signedIn) return undefined;
    const timer = setTimeout(() => void loadChat().catch(() => undefined), 300);
    return () => clearTimeout(timer);
  }, [signedIn]);
  if (!signedIn) return <SignedOut />;
  const Current = SCREEN_COMPONENTS[route.screen];
  return (
    <QueryClientProvider client={client}>
      <Shell screen={route.screen} connected={connected}>
        <Suspense
          fallback={
            <div className="card" aria-busy="true">
              <span className="skeleton" />
            </div>
          }
        >
          <Current id={route.id} />
        </Suspense>
      </Shell>
    </QueryClientProvider>
  );
}
