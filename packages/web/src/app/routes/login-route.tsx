import LoginPage from '../../features/auth/login-page';
import { LazyLangSelect } from '../layout/lazy-lang-select';

/** The sign-in page with its language selector, loaded on its own (router.tsx). */
export default function LoginRoute() {
  return <LoginPage toolbar={<LazyLangSelect />} />;
}
