import LoginPage from '../../features/auth/login-page';
import { LoginLangMenu } from '../layout/login-lang-menu';

/** The sign-in page with its language selector, loaded on its own (router.tsx). */
export default function LoginRoute() {
  return <LoginPage toolbar={<LoginLangMenu />} />;
}
