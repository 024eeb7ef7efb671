/**
 * The app shell: Ant Design theme and the route table. Screens live in web/features/<area>/ and
 * are added here as their issues land.
 */
import { ConfigProvider } from 'antd';
import { Route, Routes } from 'react-router';
import { Landing } from './features/landing/Landing';
import { LoginPlaceholder } from './features/landing/LoginPlaceholder';
import { NotFound } from './features/landing/NotFound';

export function App() {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#2f6fde' } }}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/user/login" element={<LoginPlaceholder />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </ConfigProvider>
  );
}
