import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** /404: reachable signed in or out (DESIGN.md §9). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status="404"
        title={t('shell.notFound.headline')}
        subTitle={t('shell.notFound.text')}
        extra={
          <Link to="/dashboard">
            <Button type="primary">{t('shell.notFound.back')}</Button>
          </Link>
        }
      />
    </Flex>
  );
}
