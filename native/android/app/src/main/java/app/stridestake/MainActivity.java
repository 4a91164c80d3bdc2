package app.stridestake;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
