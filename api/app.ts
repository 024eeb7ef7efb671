/**
 * The Express application: everything HTTP except the socket services (realtime/), which share
 * the same server. Order matters: logging first, then health (never queued), admission control
 * (api/admission.ts: bounded lanes, 503 + Retry-After past them) before any body is read, the
 * ShowDoc transport, the web app, a JSON 404, and the one error handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { type Config, DEFAULT_CHROMIUM_PATH, errors, type Logger } from '../models/platform';
import { DEFAULT_ASSISTANT_LIMITS } from '../models/agent';
import { type Admission, admission } from './admission';
import { AnswerCache, answerFront } from './answerCache';
import { errorHandler } from './errorHandler';
import { healthCheck } from './health';
import { mcpEndpoint, MCP_PATHS } from './mcp';
import { mockServing } from './mockServing';
import type { ControllerRegistry } from './registry';
import { requestLog } from './requestLog';
import { securityHeaderList, securityHeaders } from './securityHeaders';
import { createControllerRegistry } from './routes';
import { showdocTransport } from './showdoc';
import { parseQueryString } from './showdocRoute';
import type { AppState } from './state';
import { webApp } from './web';

export interface AppOptions {
  config: Pick<Config, 'bodyLimitBytes' | 'trustProxy'> &
    Partial<
      Pick<
        Config,
        | 'allowPrivateHosts'
        | 'pdfChromiumPath'
        | 'mcpTokenRateLimit'
        | 'mcpUserRateLimit'
        | 'assistantLimits'
        | 'maxInflightPerWorker'
        | 'maxQueuePerWorker'
        | 'queueTimeoutMs'
        | 'answerCacheBytes'
      >
    >;
  logger: Logger;
  state: AppState;
  /** Folder of the built web app (index.html + assets/). */
  webDistDir: string;
  /** Defaults to every controller in api/routes. */
  registry?: ControllerRegistry;
  /** Reused answers (api/answerCache.ts); none when absent. */
  answers?: AnswerCache;
  /** Admission control (api/admission.ts), shared with the answer cache's front; made when absent. */
  admission?: Admission;
}

/** The API's request listener: the answer cache's front, then the Express app. */
export interface ApiServer {
  app: Express;
  answers: AnswerCache;
  listener: (req: IncomingMessage, res: ServerResponse) => void;
}

export function createApiServer(options: AppOptions): ApiServer {
  const answers = new AnswerCache(options.config.answerCacheBytes ?? 0, securityHeaderList());
  const lanes = options.admission ?? admissionOf(options);
  const app = createApp({ ...options, answers, admission: lanes });
  const listener = answerFront(
    {
      cache: answers,
      admission: lanes,
      state: options.state,
      logger: options.logger,
      bodyLimitBytes: options.config.bodyLimitBytes,
    },
    app,
  );
  return { app, answers, listener };
}

/** Admission control with the configured limits (api/admission.ts). */
function admissionOf({ config, logger }: AppOptions): Admission {
  return admission(
    {
      maxInflight: config.maxInflightPerWorker ?? 0,
      maxQueue: config.maxQueuePerWorker ?? 0,
      queueTimeoutMs: config.queueTimeoutMs ?? 2000,
    },
    logger,
  );
}

export function createApp(options: AppOptions): Express {
  const { config, logger, state } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // PHP-style query strings (`a[]=1&a[]=2`, `a[b]=1`), without Express's allowPrototypes.
  app.set('query parser', parseQueryString);

  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.get('/healthz', healthCheck(state));
  app.use(options.admission ?? admissionOf(options));
  // Before the ShowDoc transport, which would read `/server/mcp.php?s=…` as a route.
  app.all(
    MCP_PATHS,
    mcpEndpoint({
      logger,
      limits: {
        perToken: config.mcpTokenRateLimit ?? 10_000,
        perUser: config.mcpUserRateLimit ?? 20_000,
      },
    }),
  );
  app.use(mockServing(state));
  app.use(
    ['/api', '/server'],
    showdocTransport({
      registry: options.registry ?? createControllerRegistry(),
      state,
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      answers: options.answers,
      actionConfig: {
        allowPrivateHosts: config.allowPrivateHosts ?? [],
        pdfChromiumPath: config.pdfChromiumPath ?? DEFAULT_CHROMIUM_PATH,
        assistantLimits: config.assistantLimits ?? DEFAULT_ASSISTANT_LIMITS,
      },
    }),
  );
  app.use(webApp(options.webDistDir));
  app.use(() => {
    throw errors.invalidRequest(undefined, { httpStatus: 404 });
  });
  app.use(errorHandler(logger));
  return app;
}
