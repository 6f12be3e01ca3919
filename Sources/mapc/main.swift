import MapcCLI

MapcCommand.main()
