import { Guard } from './guard';
import { ProtectedRoutes } from './routes/protected-routes';

/**
 * The signed-in console (guard, layout, every screen's route), a chunk of its own: the sign-in
 * page and the public pages never fetch it (issue 14 item 7).
 */
export default function Shell() {
  return (
    <Guard>
      <ProtectedRoutes />
    </Guard>
  );
}
