/** What shows while a screen's code or first data loads. */
import { Spin } from 'antd';

export function ScreenLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '20vh 0' }}>
      <Spin size="large" />
    </div>
  );
}
