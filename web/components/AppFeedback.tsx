/**
 * Ant Design's App, minus its weight on first paint: the same context that `App.useApp()` reads
 * (message, notification, modal), but the hook instances behind it (antd's message, notification
 * and modal code, ~20 KiB gzip) load the first time one is used (FeedbackHost). An anonymous
 * reader who never sees a toast or a dialog never downloads them.
 *
 * Until the host is in, a call is queued and answered by a stand-in handle that forwards to the
 * real one (close function, `destroy`, `update`, `then`) once it exists. The root element is
 * the `ant-app` box with App's own style (text colour, font), as `<App>` rendered it.
 */
import { ConfigProvider } from 'antd';
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import type { NotificationConfig } from 'antd/es/notification/interface';
import { lazy, Suspense, useContext, useState, type ReactNode } from 'react';

const FeedbackHost = lazy(() => import('./FeedbackHost'));

type Kind = keyof useAppProps;
interface Call {
  kind: Kind;
  method: string;
  args: unknown[];
  /** Boxed: a thenable result (a confirm dialog) must not be adopted by the promise itself. */
  settle: (result: { value: unknown }) => void;
}

/** What an API call returns before the real one ran: forwards to the real result later. */
function standIn(result: Promise<{ value: unknown }>) {
  type Real = { destroy?: () => void; update?: (config: unknown) => void };
  const real = (then: (value: Real | (() => void)) => void) =>
    void result.then(({ value }) => value && then(value as Real));
  const handle = () => real((value) => typeof value === 'function' && value());
  return Object.assign(handle, {
    destroy: () => real((value) => (value as Real).destroy?.()),
    update: (config: unknown) => real((value) => (value as Real).update?.(config)),
    then: (onDone?: (value: unknown) => unknown, onFail?: (reason: unknown) => unknown) =>
      result.then(({ value }) => value).then(onDone, onFail),
  });
}

/** One provider's state: the real APIs once loaded, the calls waiting for them. */
function createFeedback(requestHost: () => void) {
  let real: useAppProps | null = null;
  const queue: Call[] = [];
  const facade = (kind: Kind) => {
    const methods = new Map<string, (...args: unknown[]) => unknown>();
    return new Proxy(
      {},
      {
        get(_target, method) {
          if (typeof method !== 'string') return undefined;
          let fn = methods.get(method);
          if (!fn) {
            fn = (...args: unknown[]) => {
              if (real)
                return (real[kind] as Record<string, (...a: unknown[]) => unknown>)[method]!(
                  ...args,
                );
              let settle!: Call['settle'];
              const result = new Promise<{ value: unknown }>((resolve) => (settle = resolve));
              queue.push({ kind, method, args, settle });
              requestHost();
              return standIn(result);
            };
            methods.set(method, fn);
          }
          return fn;
        },
      },
    );
  };
  return {
    api: {
      message: facade('message'),
      notification: facade('notification'),
      modal: facade('modal'),
    } as unknown as useAppProps,
    ready(apis: useAppProps) {
      real = apis;
      for (const call of queue.splice(0)) {
        const fn = (apis[call.kind] as Record<string, (...a: unknown[]) => unknown>)[call.method];
        call.settle({ value: fn?.(...call.args) });
      }
    },
  };
}

export function AppFeedback({
  notification,
  children,
}: {
  notification?: NotificationConfig;
  children: ReactNode;
}) {
  const [hostWanted, setHostWanted] = useState(false);
  const [feedback] = useState(() => createFeedback(() => setHostWanted(true)));
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  return (
    <AppContext.Provider value={feedback.api}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {hostWanted && (
          <Suspense fallback={null}>
            <FeedbackHost notification={notification} onReady={feedback.ready} />
          </Suspense>
        )}
        {children}
      </div>
    </AppContext.Provider>
  );
}

/** `App.useApp()` without importing antd's App component (and with it the code this defers). */
export function useAppFeedback(): useAppProps {
  return useContext(AppContext);
}
