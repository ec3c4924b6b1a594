"""Shell backends for tooldrop: run rendered scripts under bash, sh or cmd.exe."""
