// The kiosk is only consumed through its remoteEntry.js (./App); this entry keeps Vite's build happy.
export {};
