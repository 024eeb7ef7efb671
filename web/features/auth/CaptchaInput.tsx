/** The captcha text box with its picture beside it (click the picture for a new one). */
import { Input, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Captcha } from './useCaptcha';

export function CaptchaInput({
  captcha,
  value,
  onChange,
}: {
  captcha: Captcha;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <Input
        size="large"
        autoComplete="off"
        placeholder={t('auth.captcha')}
        aria-label={t('auth.captcha')}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        maxLength={8}
      />
      <Tooltip title={t('auth.captchaRefresh')}>
        {captcha.imageUrl ? (
          <img
            src={captcha.imageUrl}
            alt={t('auth.captchaImage')}
            width={120}
            height={40}
            style={{
              cursor: 'pointer',
              borderRadius: 6,
              border: '1px solid #e5e7eb',
              flex: 'none',
            }}
            onClick={() => void captcha.refresh()}
          />
        ) : (
          <div
            role="button"
            tabIndex={0}
            aria-label={t('auth.captchaRefresh')}
            style={{ width: 120, height: 40, flex: 'none', background: '#f0f1f3', borderRadius: 6 }}
            onClick={() => void captcha.refresh()}
            onKeyDown={(e) => e.key === 'Enter' && void captcha.refresh()}
          />
        )}
      </Tooltip>
    </div>
  );
}
