/**
 * `ExtLogin/*` (reference accounts §9.25): browser navigations of external login. `oauth2`
 * (GET) sends the browser to the provider, and on its way back answers with a redirect to the
 * web app's token-login bridge carrying a one-minute, single-use login code; `bySecretKey` does
 * the same for a signed generic-access link; `redeem` turns a login code into a token. Failures
 * answer the error envelope. Rules in models/accounts/extLogin.ts.
 */
import {
  finishOauth2,
  loginBySecretKey,
  redeemLoginCode,
  startOauth2,
} from '../../models/accounts';
import { publicBaseUrl } from '../uploads';
import { extLoginContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

const STATE_COOKIE = 'quire_oauth2_state';

function cookie(ctx: ActionContext, name: string): string {
  const header = ctx.req.get('cookie') ?? '';
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header);
  return match ? decodeURIComponent(match[1]) : '';
}

async function toBridge(ctx: ActionContext, login: { code: string; redirect: string }) {
  const target = new URL('/user/loginByUserToken', await publicBaseUrl(ctx));
  target.searchParams.set('login_code', login.code);
  target.searchParams.set('redirect_uri', login.redirect || '/item/index');
  ctx.res.set('Cache-Control', 'no-store').redirect(302, target.toString());
}

/** The browser navigations: redirects, not envelopes, so they have no contract (contracts.test). */
export const extLoginRedirects = defineController('ExtLogin', {
  async oauth2(ctx) {
    const callbackUrl = `${await publicBaseUrl(ctx)}/api/ExtLogin/oauth2`;
    const code = ctx.params.str('code');
    if (!code) {
      const { url, state } = await startOauth2(callbackUrl, ctx.params.str('redirect'));
      ctx.res.cookie(STATE_COOKIE, state, {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.req.secure,
        path: '/',
        maxAge: 600_000,
      });
      ctx.res.set('Cache-Control', 'no-store').redirect(302, url);
      return;
    }
    const login = await finishOauth2({
      code,
      state: ctx.params.str('state'),
      browserState: cookie(ctx, STATE_COOKIE),
      callbackUrl,
    });
    ctx.res.clearCookie(STATE_COOKIE, { path: '/' });
    await toBridge(ctx, login);
  },

  async bySecretKey(ctx) {
    const login = await loginBySecretKey({
      username: ctx.params.str('username'),
      time: ctx.params.int('time'),
      token: ctx.params.str('token'),
      name: ctx.params.str('name'),
      redirect: ctx.params.str('redirect'),
    });
    await toBridge(ctx, login);
  },
});

export const extLoginController = defineController('ExtLogin', extLoginContract, {
  async redeem(ctx) {
    return redeemLoginCode(ctx.input.login_code, ctx.ip);
  },
});
