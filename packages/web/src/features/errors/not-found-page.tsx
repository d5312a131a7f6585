import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PlainPage, PlainResult } from '../../app/plain-page';

/** /404: reachable signed in or out (DESIGN.md §9); drawn without antd (app/plain-pages.ts). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PlainPage titleKey="shell.notFound.title">
      <PlainResult
        headline={t('shell.notFound.headline')}
        text={t('shell.notFound.text')}
        extra={
          <button type="button" className="csms-primary-button csms-plain-button" onClick={() => navigate('/dashboard')}>
            {t('shell.notFound.back')}
          </button>
        }
      />
    </PlainPage>
  );
}
